import { defineTool } from './define-tool.js';
import { string, type ArgsOf } from './params.js';
import { search } from '../web/searxng.js';
import { ToolError } from './tool-error.js';
import { plural, type ToolEnv, type ToolOutcome } from './tool-env.js';

const params = {
  query: string('What to search the web for.', { required: true, nonEmpty: true }),
};

/**
 * `search{query}`: a web search through the SearXNG-compatible endpoint the user set
 * (`REIKA_SEARCH_URL`); at most 8 results, each a title, URL and snippet. Offered only when the
 * endpoint is set (the session's registry leaves it out otherwise). The user chose the endpoint,
 * so a query asks no approval; reading a result's page is `fetch`, which does.
 */
export const searchTool = defineTool({
  name: 'search',
  description: 'Search the web. Returns at most 8 results, each with its title, URL and a snippet; read a page with fetch.',
  params,
  modes: { agent: {}, plan: {} },
  approval: 'never',
  run: runSearch,
});

async function runSearch(args: ArgsOf<typeof params>, env: ToolEnv): Promise<ToolOutcome> {
  const endpoint = env.settings.searchUrl;
  if (!endpoint) throw new ToolError('UNKNOWN_TOOL', 'search is not available: no search endpoint is set (REIKA_SEARCH_URL)');
  const query = args.query.trim();
  const results = await search(endpoint, query, env.signal);
  if (results.length === 0) return { summary: `search "${query}": no results`, payload: '' };
  const payload = results.map((result, i) => `${i + 1}. ${result.title}\n   ${result.url}${result.snippet ? `\n   ${result.snippet}` : ''}`).join('\n');
  return { summary: `search "${query}": ${plural(results.length, 'result')}`, payload };
}
