# tiny-kernels' arch helpers, in the shape of vLLM's cmake/utils.cmake.

# The archs of SRC_CUDA_ARCHS that the build targets (TGT_CUDA_ARCHS); an `a`
# arch is kept when its plain arch is targeted, and consumes it.
function(cuda_archs_loose_intersection OUT_CUDA_ARCHS SRC_CUDA_ARCHS TGT_CUDA_ARCHS)
  set(_TGT ${TGT_CUDA_ARCHS})
  set(_OUT)
  foreach(_arch ${SRC_CUDA_ARCHS})
    if(_arch MATCHES "a$")
      string(REGEX REPLACE "a$" "" _base "${_arch}")
      if("${_base}" IN_LIST _TGT)
        list(REMOVE_ITEM _TGT "${_base}")
        list(APPEND _OUT "${_arch}")
      endif()
    elseif("${_arch}" IN_LIST _TGT)
      list(APPEND _OUT "${_arch}")
    endif()
  endforeach()
  set(${OUT_CUDA_ARCHS} ${_OUT} PARENT_SCOPE)
endfunction()

# Gives each source the arch list it is compiled for.
function(set_gencode_flags_for_srcs)
  cmake_parse_arguments(arg "" "" "SRCS;CUDA_ARCHS" ${ARGN})
  foreach(_src ${arg_SRCS})
    set_source_files_properties(${_src} PROPERTIES CUDA_ARCHITECTURES "${arg_CUDA_ARCHS}")
  endforeach()
endfunction()
