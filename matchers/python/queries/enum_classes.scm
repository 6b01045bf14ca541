; Enum classes: `class MoeRunnerBackend(Enum)`, `(str, Enum)`, `(IntEnum)`.
; Captures: @enum.class, @enum.name, @enum.base.
(class_definition
  name: (identifier) @enum.name
  superclasses: (argument_list [(identifier) (attribute)] @enum.base)
  (#match? @enum.base "(^|\\.)(Enum|IntEnum|StrEnum)$")) @enum.class
