//===--- ArchTableTest.cpp - the arch table data and its errors ---------===//
// SPDX-License-Identifier: Apache-2.0
#include "model/ArchTable.h"
#include "model/Errors.h"

#include <gtest/gtest.h>
#include <llvm/Support/FileUtilities.h>

#include <fstream>

using namespace archscope;

TEST(ArchTable, ShipsSm75ThroughSm121WithCitedRows) {
  auto table = ArchTable::load(ARCHSCOPE_DATA_DIR "/arch-table.yaml");
  ASSERT_NE(table.find({7, 5}), nullptr);
  ASSERT_NE(table.find({12, 1}), nullptr);
  for (const auto &row : table.rows()) EXPECT_FALSE(row.sources.empty()) << row.cc.name();
  EXPECT_EQ(table.defaultToolkit(), "13.0");
}

TEST(ArchTable, IsaFeaturesFollowTheHardwareFacts) {
  auto table = ArchTable::load(ARCHSCOPE_DATA_DIR "/arch-table.yaml");
  const ArchRow *b200 = table.find({10, 0}), *rtx = table.find({12, 0}), *h100 = table.find({9, 0});
  ASSERT_TRUE(b200 && rtx && h100);
  EXPECT_TRUE(b200->hasFeature("tcgen05", Variant::ArchSpecific));
  EXPECT_FALSE(b200->hasFeature("tcgen05", Variant::Plain)); // ptxas rejects it for plain sm_100
  EXPECT_FALSE(rtx->hasFeature("tcgen05", Variant::ArchSpecific));
  EXPECT_TRUE(rtx->hasFeature("mma_block_scale_mxf4nvf4", Variant::ArchSpecific));
  EXPECT_TRUE(h100->hasFeature("wgmma", Variant::ArchSpecific));
  EXPECT_FALSE(h100->hasFeature("wgmma", Variant::Plain));
  EXPECT_EQ(rtx->smemOptinBytes.value_or(0), 101376);
  EXPECT_EQ(b200->firstCuda.at(Variant::FamilySpecific), "12.9");
}

TEST(ArchTable, BadYamlIsAnInputErrorWithFileAndLine) {
  std::string path = ::testing::TempDir() + "/bad-arch.yaml";
  llvm::FileRemover removeAtEnd(path);
  std::ofstream(path) << "version: 1\ndefault_toolkit: \"13.0\"\ngpus:\n  - cc: \"12.0\n";
  try {
    ArchTable::load(path);
    FAIL() << "no error";
  } catch (const ArchscopeError &e) {
    EXPECT_EQ(e.code(), ExitInput);
    EXPECT_NE(std::string(e.what()).find(path + ":"), std::string::npos) << e.what();
  }
}

TEST(ArchTable, UnknownKeysAndUncitedRowsAreRejected) {
  std::string path = ::testing::TempDir() + "/uncited.yaml";
  llvm::FileRemover removeAtEnd(path);
  std::ofstream(path) << "version: 1\ndefault_toolkit: \"13.0\"\ngpus:\n  - cc: \"12.0\"\n    parts: [x]\n";
  EXPECT_THROW(ArchTable::load(path), ArchscopeError);
  std::ofstream(path) << "version: 1\ndefault_toolkit: \"13.0\"\ngpus:\n  - cc: \"12.0\"\n    colour: red\n";
  try {
    ArchTable::load(path);
    FAIL() << "no error";
  } catch (const ArchscopeError &e) {
    EXPECT_NE(std::string(e.what()).find(":5:5: unknown key 'colour'"), std::string::npos) << e.what();
  }
}
