; A compiler flag passed only on a new enough CUDA toolkit:
;   "-DENABLE_FP4" if is_cuda_version_at_least("12.8") else ""   (FlashInfer)
; Captures: @gate (the whole expression), @flag (the string passed when the
; test holds), @test (the test). ToolkitGatedFlags.cpp keeps the -D/-U flags
; whose test reads the CUDA version.
(conditional_expression
  (string) @flag
  [(call) (comparison_operator) (identifier) (attribute)] @test
  (_)) @gate
