import type { MapLanguage } from "./map-language.js";

// What the grammars' own tags.scm leave out, in the same capture scheme (`@name` plus a
// `@definition.KIND` or `@reference.KIND` node): type aliases, enums and constants as
// definitions, and the uses that tie files together (imports, types, `Thing.member`,
// base classes) as references. Captures without a role are ignored by the extractor.

const JS_COMMON = `
(program (lexical_declaration (variable_declarator name: (identifier) @name)) @definition.constant)
(program (export_statement declaration: (lexical_declaration (variable_declarator name: (identifier) @name)) @definition.constant))
(import_specifier name: (identifier) @name) @reference.import
(member_expression object: (identifier) @name) @reference.use
`;

const TYPESCRIPT = `${JS_COMMON}
(type_alias_declaration name: (type_identifier) @name) @definition.type
(enum_declaration name: (identifier) @name) @definition.type
(class_declaration name: (type_identifier) @name) @definition.class
(program (export_statement declaration: (ambient_declaration (lexical_declaration (variable_declarator name: (identifier) @name))) @definition.constant))
(program (ambient_declaration (lexical_declaration (variable_declarator name: (identifier) @name))) @definition.constant)
(type_identifier) @name @reference.type
(extends_clause value: (identifier) @name) @reference.class
`;

const JAVASCRIPT = `${JS_COMMON}
(class_heritage (identifier) @name) @reference.class
`;

const PYTHON = `
(class_definition body: (block (function_definition name: (identifier) @name) @definition.method))
(class_definition body: (block (decorated_definition (function_definition name: (identifier) @name) @definition.method)))
(class_definition superclasses: (argument_list (identifier) @name) @reference.class)
(import_from_statement name: (dotted_name (identifier) @name) @reference.import)
(import_from_statement name: (aliased_import name: (dotted_name (identifier) @name)) @reference.import)
(attribute object: (identifier) @name) @reference.use
(type (identifier) @name) @reference.type
`;

const RUST = `
(const_item name: (identifier) @name) @definition.constant
(static_item name: (identifier) @name) @definition.constant
(type_identifier) @name @reference.type
(scoped_identifier path: (identifier) @name) @reference.use
(use_declaration argument: (scoped_identifier name: (identifier) @name)) @reference.import
(use_list (identifier) @name) @reference.import
`;

const GO = `
(type_declaration (type_spec name: (type_identifier) @name type: (interface_type)) @definition.interface)
(const_spec name: (identifier) @name) @definition.constant
`;

/** Our additions to each language's tag query. */
export const EXTRA_QUERIES: Record<MapLanguage, string> = {
  typescript: TYPESCRIPT,
  tsx: TYPESCRIPT,
  javascript: JAVASCRIPT,
  python: PYTHON,
  rust: RUST,
  go: GO,
};
