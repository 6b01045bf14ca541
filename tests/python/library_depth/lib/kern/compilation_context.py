# FlashInfer's CompilationContext: the arch list is the GPUs present, filtered by
# the majors a module supports; none left is a raise at build time.
import torch


class CompilationContext:
    def __init__(self):
        self.TARGET_CUDA_ARCHS = set()
        for device in range(torch.cuda.device_count()):
            major, minor = torch.cuda.get_device_capability(device)
            self.TARGET_CUDA_ARCHS.add((major, minor))

    def get_nvcc_flags_list(self, supported_major_versions=None):
        archs = [a for a in self.TARGET_CUDA_ARCHS if a[0] in supported_major_versions]
        if len(archs) == 0:
            raise RuntimeError("no supported CUDA architecture")
        return ["-arch=sm_%d%d" % a for a in archs]


current_context = CompilationContext()
