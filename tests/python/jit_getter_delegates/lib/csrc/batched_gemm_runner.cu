// Picks the cubin whose architecture matches the GPU.
namespace tg {
enum class CudaArch { Sm100a, Sm100f, Sm103a };
}

struct Config {
  tg::CudaArch mSm;
};

bool usable(const Config &config, int smVersion) {
  if (smVersion == 103) return config.mSm == tg::CudaArch::Sm103a || config.mSm == tg::CudaArch::Sm100f;
  return config.mSm == tg::CudaArch::Sm100a || config.mSm == tg::CudaArch::Sm100f;
}
