import { defineLanguage, type FileFacts, type Groups } from './language.js';

// C, C++ and Objective-C. Functions whose name starts a line after its return type (or on the
// line below it, GNU style), out-of-line C++ members (`Foo::bar`), structs, classes, unions,
// enums, typedefs and `using` aliases at the top level, macros with a body, and Objective-C
// interfaces, protocols, implementations and methods.
//
// Exported: everything a header declares; in a source file, functions that are not `static` and
// Objective-C classes and methods (they are public at run time). Names with a leading underscore
// are internal everywhere. Prototypes in a source file are only forward declarations and are
// skipped, and so are include guards; macros and types in a source file are private (no other
// file can see them). Block comments are dropped first.

const HEADER = new Set(['.h', '.hh', '.hpp', '.hxx', '.h++', '.inl', '.ipp', '.tpp']);
const isHeader = (file: FileFacts): boolean => HEADER.has(file.extension);
const NOT_NAMES = new Set(['if', 'for', 'while', 'switch', 'return', 'sizeof', 'defined', 'catch', 'else', 'do', 'case', 'new', 'delete']);

/** A leading underscore marks a name as internal (reserved to the implementation in C). */
const internal = (name: string): boolean => name.startsWith('_');
const inHeader = (_groups: Groups, file: FileFacts, name: string): boolean => isHeader(file) && !internal(name);
const functionExported = (groups: Groups, file: FileFacts, name: string): boolean =>
  !internal(name) && (isHeader(file) || !/\bstatic\b/.test(groups.type ?? ''));
/** `FOO_H`, `FOO_H_`, `FOO_HPP`, `FOO_INCLUDED`: include guards, not definitions. */
const notGuard = (groups: Groups): boolean => !/_(?:H|HPP|HXX|H_INCLUDED|INCLUDED)_*$/.test(groups.name ?? '');
/**
 * Drops block comments (prose at a line start can look like a declaration). Each becomes one
 * space: what followed `*\/` on its line never started a line, so no rule can newly match.
 */
const dropComments = (text: string): string => (text.includes('/*') ? text.replace(/\/\*[\s\S]*?\*\//g, ' ') : text);
const functionAccepted = (groups: Groups, file: FileFacts): boolean =>
  !NOT_NAMES.has(groups.name ?? '') && !/\b(?:return|else|typedef)\b/.test(groups.type ?? '') && (isHeader(file) || groups.end !== ';');

const QUALIFIED = String.raw`(?:[A-Za-z_]\w*(?:<[^;{}()\n]*>)?::)*`;
const TYPE_WORD = String.raw`[A-Za-z_][\w:]*(?:<[^;{}()\n]*>)?[ \t*&]+`;
const AFTER_ARGS = String.raw`[ \t]*(?:const\b[ \t]*)?(?:noexcept\b[ \t]*)?(?:override\b[ \t]*|final\b[ \t]*)?`;

export default defineLanguage({
  name: 'c',
  extensions: ['.c', '.cc', '.cpp', '.cxx', '.c++', '.m', '.mm', ...HEADER],
  rules: [
    {
      pattern: new RegExp(
        String.raw`^(?!template\b|using\b|namespace\b|typedef\b|return\b|else\b)(?<type>(?:${TYPE_WORD})+?)${QUALIFIED}(?<name>[A-Za-z_]\w*)[ \t]*\([^;{}]{0,1000}?\)${AFTER_ARGS}(?<end>\{|;|:|$)`,
      ),
      kind: 'function',
      exported: functionExported,
      accept: functionAccepted,
    },
    {
      // GNU style: the return type alone on the line above the name.
      pattern: new RegExp(String.raw`^(?<type>(?:[A-Za-z_]\w*[ \t*]+)*[A-Za-z_]\w*[ \t*]*)\n${QUALIFIED}(?<name>[A-Za-z_]\w*)[ \t]*\([^;{}]{0,1000}?\)${AFTER_ARGS}(?<end>\{|$)`),
      kind: 'function',
      exported: functionExported,
      accept: functionAccepted,
    },
    {
      pattern:
        /^(?:typedef[ \t]+)?(?:template[ \t]*<[^>\n]*>[ \t]*)?(?<kw>struct|class|union|enum(?:[ \t]+(?:class|struct))?)[ \t]+(?:(?:[A-Z_][A-Z0-9_]*|alignas\([^)\n]*\)|__attribute__\(\([^)\n]*\)\))[ \t]+)*(?<name>[A-Za-z_]\w*)(?:[ \t]+final)?\s*(?::[^;{]{0,1000})?\{/,
      kind: { struct: 'struct', class: 'class', union: 'struct', enum: 'enum', 'enum class': 'enum', 'enum struct': 'enum' },
      exported: inHeader,
    },
    { pattern: /^\}[ \t]*(?<name>[A-Za-z_]\w*)[ \t]*[;,]/, kind: 'type', exported: inHeader },
    {
      pattern: /^typedef[ \t]+(?:[^;{}()\n]*?[ \t*])?(?<name>[A-Za-z_]\w*)[ \t]*(?:\[[^\]\n]*\][ \t]*)*;/,
      kind: 'type',
      exported: inHeader,
    },
    { pattern: /^typedef[^;{}\n]*\([ \t]*\*[ \t]*(?<name>[A-Za-z_]\w*)[ \t]*\)/, kind: 'type', exported: inHeader },
    { pattern: /^(?:template[ \t]*<[^>\n]*>[ \t]*)?using[ \t]+(?<name>[A-Za-z_]\w*)[ \t]*=/, kind: 'type', exported: inHeader },
    { pattern: /^[ \t]*#[ \t]*define[ \t]+(?<name>[A-Za-z_]\w*)(?=\(|[ \t]+\S)/, kind: 'macro', exported: inHeader, accept: notGuard },
    // Objective-C.
    { pattern: /^@(?<kw>interface|implementation)[ \t]+(?<name>[A-Za-z_]\w*)/, kind: 'class', exported: true },
    { pattern: /^@protocol[ \t]+(?<name>[A-Za-z_]\w*)\b(?![ \t]*[;,])/, kind: 'protocol', exported: true },
    { pattern: /^[-+][ \t]*\([^)\n]*\)[ \t]*(?<name>[A-Za-z_]\w*)/, kind: 'method', exported: true },
  ],
  prepare: dropComments,
});
