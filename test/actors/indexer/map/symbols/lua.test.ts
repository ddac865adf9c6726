import test from 'ava';
import { definitionsOf } from './definitions-of.js';

test('a Lua module lists module functions and globals as exported, locals as private', (t) => {
  const source = `local json = require("json")

local M = {}

local function trim(s)
  return (s:gsub("^%s+", ""))
end

local encode = function(value)
  return json.encode(value)
end

function M.parse(text)
  local function inner() end
  return json.decode(trim(text))
end

function M:reload()
  self.cache = {}
end

M.dump = function(value)
  return encode(value)
end

function setup(opts)
end

return M
`;
  t.deepEqual(definitionsOf('lua/config/init.lua', source), [
    '- trim function',
    '- encode function',
    '+ parse function',
    '+ reload function',
    '+ dump function',
    '+ setup function',
  ]);
});
