import { PROFILE_FIELDS, SETTINGS, type SettingType } from '../settings/declarations.js';

type Schema = Record<string, unknown>;

function schemaOf(type: SettingType): Schema {
  switch (type.kind) {
    case 'boolean':
      return { type: 'boolean' };
    case 'count':
      return { type: 'integer', minimum: 0 };
    case 'duration':
      return { oneOf: [{ type: 'integer', minimum: 0, description: 'milliseconds' }, { type: 'string', pattern: '^\\d+(\\.\\d+)?(ms|s|m|h)?$' }] };
    case 'choice':
      return { enum: [...type.values, ...Object.keys(type.aliases ?? {})] };
    case 'url':
      return { type: 'string', format: 'uri' };
    case 'text':
      return { type: 'string' };
    case 'list':
      return { type: 'array', items: { type: 'string' } };
  }
}

/**
 * The JSON Schema of a settings file, made from the declarations (so it never drifts from what
 * reika reads). `docs/settings.schema.json` is this, written out; a test keeps the two equal.
 * `permissions` and `hooks` are described loosely here: their contents are the rules engine's.
 */
export function settingsSchema(): Schema {
  const properties: Record<string, Schema> = {
    $schema: { type: 'string' },
    permissions: {
      type: 'object',
      description: 'Permission rules in Claude Code syntax: {"allow": [...], "ask": [...], "deny": [...]} (docs/settings.md)',
      properties: { allow: { type: 'array', items: { type: 'string' } }, ask: { type: 'array', items: { type: 'string' } }, deny: { type: 'array', items: { type: 'string' } } },
    },
    hooks: { type: 'object', description: 'Hooks by event: {"PostToolUse": [{"matcher": "edit", "hooks": [{"type": "command", "command": "…"}]}]} (docs/settings.md)' },
    profiles: {
      type: 'object',
      description: 'Profiles by name, each a server and model of its own; /model NAME switches',
      additionalProperties: {
        type: 'object',
        additionalProperties: false,
        properties: Object.fromEntries(PROFILE_FIELDS.map((field) => [field.key, { ...schemaOf(field.type), description: field.doc }])),
      },
    },
  };
  for (const setting of SETTINGS) {
    if (setting.from === 'environment' || setting.key === 'profiles') continue;
    const entry = { ...schemaOf(setting.type), description: `${setting.doc} (${setting.env})` };
    const [group, key] = setting.key.split('.');
    if (key === undefined) {
      properties[group!] = entry;
      continue;
    }
    const holder = (properties[group!] ??= { type: 'object', additionalProperties: false, properties: {} }) as { properties: Record<string, Schema> };
    holder.properties[key] = entry;
  }
  return { $schema: 'http://json-schema.org/draft-07/schema#', title: 'reika settings', type: 'object', additionalProperties: false, properties };
}
