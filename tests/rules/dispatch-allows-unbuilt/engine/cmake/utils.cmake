# The shape of vllm #56548 / PR #56549: matching "10.0a" consumes the plain
# "10.0" target, so the plain sm_100 cubin that a B300 (CC 10.3) would load is
# never built. Written here for archscope's tests.
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

# vLLM's helper shape: gives each source the arch list it is compiled for.
function(set_gencode_flags_for_srcs)
  cmake_parse_arguments(arg "" "" "SRCS;CUDA_ARCHS" ${ARGN})
  foreach(_src ${arg_SRCS})
    set_source_files_properties(${_src} PROPERTIES CUDA_ARCHITECTURES "${arg_CUDA_ARCHS}")
  endforeach()
endfunction()
