//===--- ConditionTest.cpp - three-valued evaluation --------------------===//
// SPDX-License-Identifier: Apache-2.0
#include "model/Condition.h"

#include <gtest/gtest.h>

using namespace archscope;

namespace {
Linear major() { return Linear::var(SymVar::CcMajor); }
Linear minor() { return Linear::var(SymVar::CcMinor); }
Linear k(long v) { return Linear::constantOf(v); }
Linear sm() {
  Linear l;
  l.coef[int(SymVar::CcMajor)] = 10;
  l.coef[int(SymVar::CcMinor)] = 1;
  return l;
}
EvalEnv on(int maj, int min) {
  EvalEnv e;
  e.gpu = {maj, min};
  return e;
}
} // namespace

TEST(Condition, KleeneTruthTables) {
  EXPECT_EQ(triAnd(Tri::False, Tri::Unknown), Tri::False);
  EXPECT_EQ(triAnd(Tri::True, Tri::Unknown), Tri::Unknown);
  EXPECT_EQ(triOr(Tri::True, Tri::Unknown), Tri::True);
  EXPECT_EQ(triOr(Tri::False, Tri::Unknown), Tri::Unknown);
  EXPECT_EQ(triNot(Tri::Unknown), Tri::Unknown);
}

TEST(Condition, TupleComparisonIsLexicographic) {
  auto ge100 = Condition::compare({major(), minor()}, CmpOp::Ge, {k(10), k(0)}, ">= (10, 0)");
  EXPECT_EQ(ge100.eval(on(9, 0)), Tri::False);
  EXPECT_EQ(ge100.eval(on(10, 3)), Tri::True);
  EXPECT_EQ(ge100.eval(on(12, 0)), Tri::True); // the open-ended guard admits sm_120
  auto lt = Condition::compare({major(), minor()}, CmpOp::Lt, {k(10), k(0)}, "< (10, 0)");
  EXPECT_EQ(lt.eval(on(9, 0)), Tri::True);
}

TEST(Condition, LinearSmVersionAndMembership) {
  auto is100 = Condition::compare({sm()}, CmpOp::Eq, {k(100)}, "sm == 100");
  auto is103 = Condition::compare({sm()}, CmpOp::Eq, {k(103)}, "sm == 103");
  auto in = is100 || is103;
  EXPECT_EQ(in.eval(on(10, 3)), Tri::True);
  EXPECT_EQ(in.eval(on(11, 0)), Tri::False);
  EXPECT_EQ((!in).eval(on(12, 1)), Tri::True);
}

TEST(Condition, ConstantComparisonsFold) {
  EXPECT_TRUE(Condition::compare({k(3)}, CmpOp::Lt, {k(4)}, "").isTrue());
  EXPECT_TRUE(Condition::compare({k(3)}, CmpOp::Gt, {k(4)}, "").isFalse());
  auto c = Condition::truth() && Condition::opaque(OpaqueKind::Config, "x");
  EXPECT_FALSE(c.isTrue());
  EXPECT_TRUE((Condition::falsity() && Condition::opaque(OpaqueKind::Config, "x")).isFalse());
}

TEST(Condition, OpaqueAtomsAreUnknownUntilAssumed) {
  auto pkg = Condition::opaque(OpaqueKind::Package, "has_b12x()");
  auto c = pkg && Condition::compare({major()}, CmpOp::Eq, {k(12)}, "major == 12");
  EXPECT_EQ(c.eval(on(12, 0)), Tri::Unknown);
  EXPECT_EQ(c.eval(on(10, 0)), Tri::False); // false whatever the package
  EvalEnv e = on(12, 0);
  e.assume["has_b12x()"] = true;
  EXPECT_EQ(c.eval(e), Tri::True);
  ASSERT_EQ(c.opaqueAtoms().size(), 1u);
  EXPECT_EQ(c.opaqueAtoms()[0].opaqueKind, OpaqueKind::Package);
}

TEST(Condition, AssumingFoldsTheNamedAtomsOnly) {
  auto act = Condition::opaque(OpaqueKind::Config, "activation_key == kNvfp4Dynamic");
  auto other = Condition::opaque(OpaqueKind::Package, "has_b12x()");
  auto ge100 = Condition::compare({major()}, CmpOp::Ge, {k(10)}, "major >= 10");
  auto c = (act && ge100) || (!act && other);
  auto yes = c.assuming({{"activation_key == kNvfp4Dynamic", true}});
  EXPECT_EQ(yes.eval(on(9, 0)), Tri::False);
  EXPECT_EQ(yes.eval(on(10, 0)), Tri::True);
  auto no = c.assuming({{"activation_key == kNvfp4Dynamic", false}});
  EXPECT_EQ(no.eval(on(10, 0)), Tri::Unknown); // has_b12x() is still open
  ASSERT_EQ(no.opaqueAtoms().size(), 1u);
  EXPECT_EQ(no.opaqueAtoms()[0].text, "has_b12x()");
  EXPECT_TRUE(act.assuming({{"activation_key == kNvfp4Dynamic", false}}).isFalse());
}

TEST(Condition, BackendAndQuantAtoms) {
  auto trtllm = Condition::backendIs({"flashinfer_trtllm", "experimental_sgl_trtllm"}, "is_flashinfer_trtllm()");
  EvalEnv e = on(10, 0);
  EXPECT_EQ(trtllm.eval(e), Tri::Unknown); // backend not set
  e.backend = "experimental_sgl_trtllm";
  EXPECT_EQ(trtllm.eval(e), Tri::True);
  auto fp4 = Condition::quantIs({"modelopt_fp4"}, "quantization == 'modelopt_fp4'");
  e.quantFlags = std::set<std::string>{"modelopt_fp4"};
  EXPECT_EQ(fp4.eval(e), Tri::True);
  e.quantFlags = std::set<std::string>{"fp8"};
  EXPECT_EQ(fp4.eval(e), Tri::False);
}

TEST(Condition, CudaVersionAtoms) {
  auto cuda128 = Condition::compare({Linear::var(SymVar::CudaMajor), Linear::var(SymVar::CudaMinor)}, CmpOp::Ge,
                                    {k(12), k(8)}, "cuda >= 12.8");
  EvalEnv e = on(12, 0);
  e.cudaMajor = 12;
  e.cudaMinor = 6;
  EXPECT_EQ(cuda128.eval(e), Tri::False);
  e.cudaMajor = 13;
  e.cudaMinor = 0;
  EXPECT_EQ(cuda128.eval(e), Tri::True);
}

TEST(Condition, SharedSubformulasEvaluateInLinearTime) {
  // 60 nested if-then-else merges share their sub-formulas: a tree walk
  // would take 2^60 steps; the DAG walk takes 60.
  Condition c = Condition::compare({major()}, CmpOp::Eq, {k(12)}, "major == 12");
  for (int i = 0; i < 60; ++i) {
    auto a = Condition::opaque(OpaqueKind::Config, std::string("a").append(std::to_string(i)));
    c = (a && c) || (!a && c);
  }
  EXPECT_EQ(c.eval(on(10, 0)), Tri::False);
  EXPECT_LE(c.str().size(), 700u);
}

TEST(Condition, EveryValueOfManyRunTimeFactsIsDecided) {
  // A raise after 24 independent if/else merges, and only on sm_110: every
  // value of the 24 facts reaches it there. Trying the 2^24 assignments one
  // by one gave up (FlashInfer's JIT raise under SGLang had 21 such facts).
  Condition reached = Condition::truth();
  for (int i = 0; i < 24; ++i) {
    auto a = Condition::opaque(OpaqueKind::Config, "cfg.a" + std::to_string(i));
    auto b = Condition::opaque(OpaqueKind::Config, "cfg.b" + std::to_string(i));
    reached = reached && ((a && b) || (a && !b) || !a);
  }
  auto raise = reached && Condition::compare({major()}, CmpOp::Eq, {k(11)}, "major == 11");
  EXPECT_EQ(raise.eval(on(11, 0)), Tri::Unknown);
  EXPECT_EQ(raise.evalEveryValue(on(11, 0)), Tri::True);
  EXPECT_EQ(raise.evalEveryValue(on(10, 0)), Tri::False);
  // One branch that skips it: reached for some values, not for every one.
  auto skip = Condition::opaque(OpaqueKind::Config, "cfg.fast_path");
  auto sometimes = raise && !skip;
  EXPECT_EQ(sometimes.evalEveryValue(on(11, 0)), Tri::Unknown);
  EXPECT_EQ(sometimes.evalSomeValue(on(11, 0)), Tri::True);
  EXPECT_EQ(sometimes.evalSomeValue(on(10, 0)), Tri::False);
  // A contradiction is reached by no value.
  EXPECT_EQ((skip && !skip).evalSomeValue(on(11, 0)), Tri::False);
}

TEST(Condition, EveryValueKeepsUnresolvedLeavesUnknown) {
  // An unknown is not a run-time fact that is either true or false: what it
  // stands for was not resolved, so `u or not u` stays unknown, as in eval.
  auto u = Condition::unknown("call not resolved");
  auto a = Condition::opaque(OpaqueKind::Config, "cfg.a");
  EXPECT_EQ((u || !u).evalEveryValue(on(12, 0)), Tri::Unknown);
  EXPECT_EQ(((a && u) || !a).evalEveryValue(on(12, 0)), Tri::Unknown);
  EXPECT_EQ(((a && u) || !a).evalSomeValue(on(12, 0)), Tri::True);
  EXPECT_EQ(((a || !a) || u).evalEveryValue(on(12, 0)), Tri::True);
  // An assumed fact is not free.
  EvalEnv e = on(12, 0);
  e.assume["cfg.a"] = false;
  EXPECT_EQ((a && u).evalEveryValue(e), Tri::False);
}

TEST(Condition, NegatedComparisonReadsAsWritten) {
  EXPECT_EQ((!Condition::opaque(OpaqueKind::Config, "runner is None")).str(), "runner is not None");
  EXPECT_EQ((!Condition::opaque(OpaqueKind::Config, "\"deepep\" in a2a")).str(), "\"deepep\" not in a2a");
  EXPECT_EQ((!Condition::opaque(OpaqueKind::Config, "mode == \"eager\"")).str(), "mode != \"eager\"");
  // Text where another operator binds looser keeps the plain negation.
  EXPECT_EQ((!Condition::opaque(OpaqueKind::Config, "a in b or c")).str(), "not a in b or c");
  EXPECT_EQ((!Condition::opaque(OpaqueKind::Config, "a is b is c")).str(), "not a is b is c");
  EXPECT_EQ((!Condition::opaque(OpaqueKind::Config, "mode == \"x is y\"")).str(), "mode != \"x is y\"");
}
