// TensorRT-LLM-style dispatch (moe_gemm_template_dispatch.h and friends):
// the SM comes from getSMVersion() (header missing), is kept in a member,
// and selects the kernel family by if/else-if chains and switches.
#include "tensorrt_llm/common/cudaUtils.h"
#include <stdexcept>

namespace tensorrt_llm::kernels {

class MoeGemmRunner {
public:
  MoeGemmRunner() { sm_ = tensorrt_llm::common::getSMVersion(); }
  int getSM() const { return sm_; }

  void dispatch() {
    if (sm_ >= 100 && sm_ < 120) {
      runSm100();
    } else if (sm_ == 120 || sm_ == 121) {
      runSm120();
    } else if (sm_ == 90) {
      runSm90();
    } else {
      throw std::runtime_error("[TensorRT-LLM Error][MoE] Arch unsupported for MoE GEMM");
    }
  }

  bool supportsTmaWarpSpecialized() const { return getSM() >= 90 && getSM() != 120; }

private:
  int sm_;
};

void selectTactic(int tactic) {
  switch (tensorrt_llm::common::getSMVersion()) {
  case 90:
    tactic = 1;
    break;
  case 100:
  case 103:
    tactic = 2;
    break;
  case 120:
    tactic = 3;
    break;
  default:
    TLLM_THROW("Unsupported SM for tactic selection");
  }
}

void routing(int num_tokens) {
  static int const smMajor = getSMVersion() / 10;
  bool const canUseCoop = (smMajor >= 9) && (num_tokens <= 1024);
  if (canUseCoop) {
    launchCoop();
  }
  if (tensorrt_llm::common::getSMVersion() == 120) {
    launchSm120();
  }
  int numAttrs = (getSMVersion() >= 90) ? 1 : 0;
}

} // namespace tensorrt_llm::kernels
