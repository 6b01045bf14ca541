; Arch allow-lists declared by decorators:
;   @supported_compute_capability([100, 103])   (FlashInfer)
; Captures: @decorator.name, @decorator.args, @decorator.target (the decorated
; function or class).
(decorated_definition
  (decorator
    (call
      function: [(identifier) (attribute)] @decorator.name
      arguments: (argument_list) @decorator.args))
  definition: [(function_definition name: (identifier) @decorator.target)
               (class_definition name: (identifier) @decorator.target)]
  (#match? @decorator.name "(^|\\.)supported_compute_capability$"))
