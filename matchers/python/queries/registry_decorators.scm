; Backend registries filled by decorators, keyed by the backend's name:
;   @register_fused_func("none", "flashinfer_trtllm_routed")   (SGLang's FusedOpPool)
; The glue keeps a match only when a string argument names a backend row.
; Captures: @registry.name, @registry.key (each string argument), @registry.target.
(decorated_definition
  (decorator
    (call
      function: [(identifier) (attribute)] @registry.name
      arguments: (argument_list (string) @registry.key)))
  definition: (function_definition name: (identifier) @registry.target)
  (#match? @registry.name "(^|\\.)register[A-Za-z0-9_]*$"))
