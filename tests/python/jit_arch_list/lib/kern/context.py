import torch


class CompilationContext:
    def __init__(self):
        # Filled from the GPUs present, as FlashInfer does: without a profile
        # the loop says TARGET_CUDA_ARCHS holds the running GPU's capability.
        self.TARGET_CUDA_ARCHS = set()
        for device in range(torch.cuda.device_count()):
            major, minor = torch.cuda.get_device_capability(device)
            self.TARGET_CUDA_ARCHS.add((major, minor))

    def get_nvcc_flags_list(self, supported_major_versions=None):
        archs = [t for t in self.TARGET_CUDA_ARCHS if t[0] in supported_major_versions]
        if len(archs) == 0:
            raise RuntimeError(f"no supported CUDA architectures for {supported_major_versions}")
        return [f"-gencode=arch=compute_{a}{b},code=sm_{a}{b}" for a, b in sorted(archs)]


current_compilation_context = CompilationContext()
