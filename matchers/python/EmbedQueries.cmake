# Turns queries/*.scm into QuerySources.h (raw string constants), so the
# binary carries its queries and they are compiled once at startup.
file(WRITE "${OUT}" "// Generated from matchers/python/queries/*.scm; do not edit.\n#pragma once\nnamespace archscope::py::queries {\n")
foreach(pair IN ITEMS "kImports=imports" "kEnumClasses=enum_classes" "kArchDecorators=arch_decorators" "kRegistryDecorators=registry_decorators" "kToolkitGatedFlags=toolkit_gated_flags"
        "kClosedArchTables=closed_arch_tables" "kConfigRegistries=config_registries")
  string(REPLACE "=" ";" kv "${pair}")
  list(GET kv 0 var)
  list(GET kv 1 file)
  file(READ "${SRC}/queries/${file}.scm" body)
  file(APPEND "${OUT}" "inline constexpr const char *${var} = R\"scm(${body})scm\";\n")
endforeach()
file(APPEND "${OUT}" "} // namespace archscope::py::queries\n")
