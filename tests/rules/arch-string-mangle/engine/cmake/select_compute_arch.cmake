# The shape of torch's FindCUDA/select_compute_arch.cmake: the archs of the
# GPUs present, with Fermi's 2.1 given its 2.0 virtual arch.
function(detect_gpus OUT)
  execute_process(COMMAND nvidia-smi --query-gpu=compute_cap --format=csv,noheader
                  OUTPUT_VARIABLE compute_capabilities)
  string(REGEX MATCHALL "[0-9]+\\.[0-9]+" compute_capabilities "${compute_capabilities}")
  # "12.1" becomes "12.1(2.0)": -gencode arch=compute_20,code=sm_121.
  string(REPLACE "2.1" "2.1(2.0)" compute_capabilities "${compute_capabilities}")  # EXPECT: arch-string-mangle
  # Must not flag: the fix, tied to whole list items.
  string(REGEX REPLACE "(^|;)2\\.1(;|$)" "\\12.1(2.0)\\2" fixed_capabilities "${compute_capabilities}")
  set(${OUT} ${compute_capabilities} PARENT_SCOPE)
endfunction()
