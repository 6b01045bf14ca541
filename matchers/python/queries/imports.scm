; Imports: `from M import a as b`, `import M as N`, relative imports.
; Captures: @import.stmt (the statement), @import.from (module of a from-import),
; @import.name (imported name), @import.alias (local alias).

; Section: from M import name
(import_from_statement
  module_name: (_) @import.from
  name: (dotted_name) @import.name) @import.stmt

; Section: from M import name as alias
(import_from_statement
  module_name: (_) @import.from
  name: (aliased_import
          name: (dotted_name) @import.name
          alias: (identifier) @import.alias)) @import.stmt

; Section: import M / import M as N
(import_statement name: (dotted_name) @import.name) @import.stmt
(import_statement
  name: (aliased_import
          name: (dotted_name) @import.name
          alias: (identifier) @import.alias)) @import.stmt

; Section: from M import *
(import_from_statement
  module_name: (_) @import.from
  (wildcard_import) @import.star) @import.stmt
