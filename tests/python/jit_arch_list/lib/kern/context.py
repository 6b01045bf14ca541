class CompilationContext:
    def __init__(self):
        self.TARGET_CUDA_ARCHS = set()  # filled from the GPUs present

    def get_nvcc_flags_list(self, supported_major_versions=None):
        archs = [t for t in self.TARGET_CUDA_ARCHS if t[0] in supported_major_versions]
        if len(archs) == 0:
            raise RuntimeError(f"no supported CUDA architectures for {supported_major_versions}")
        return [f"-gencode=arch=compute_{a}{b},code=sm_{a}{b}" for a, b in sorted(archs)]


current_compilation_context = CompilationContext()
