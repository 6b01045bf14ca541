; A module-level dict from backend-config classes to the runners they pick:
;   _BACKEND_RUNNERS: Dict[type, Type[_RunnerT]] = {
;       TrtllmFp4Config: TrtllmFp4RoutedRunner, ...}   (FlashInfer's MoELayer)
; ConfigRegistries.cpp keeps the pairs whose key class has a `supported`
; method and whose value is a class of the trees.
; Captures: @registry.name, @registry.pair, @registry.config, @registry.runner.
(module
  (expression_statement
    (assignment
      left: (identifier) @registry.name
      right: (dictionary
        (pair
          key: (identifier) @registry.config
          value: (identifier) @registry.runner) @registry.pair))))
