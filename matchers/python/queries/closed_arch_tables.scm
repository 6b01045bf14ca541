; A chain of tests whose last branch raises:
;   if major == 8: ... elif major == 9: ... else: raise ValueError(...)
; Captures: @chain (the if statement), @raise (the raise in its else).
; ClosedArchTables.cpp keeps the chains whose every test of one capability
; value is exact (== or in) against GPU-like integers.
(if_statement
  alternative: (else_clause
    body: (block (raise_statement) @raise))) @chain
