# The archs of SRC whose GPU the build targets (TGT): an `a`/`f` entry is
# kept when its plain arch is targeted.
function(cuda_archs_loose_intersection OUT_CUDA_ARCHS SRC_CUDA_ARCHS TGT_CUDA_ARCHS)
  set(_OUT)
  foreach(_arch ${SRC_CUDA_ARCHS})
    string(REGEX REPLACE "[af]$" "" _base "${_arch}")
    if("${_base}" IN_LIST TGT_CUDA_ARCHS)
      list(APPEND _OUT "${_arch}")
    endif()
  endforeach()
  set(${OUT_CUDA_ARCHS} ${_OUT} PARENT_SCOPE)
endfunction()
