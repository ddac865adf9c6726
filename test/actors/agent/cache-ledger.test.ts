import test from 'ava';
import { CacheLedger, cacheReuseAdvice, REPREFILL_SLACK_TOKENS } from '../../../actors/agent/cache-ledger.js';

/** Usage as a server that reports its cache (`usage.prompt_tokens_details.cached_tokens`) gives it. */
const usage = (promptTokens: number, cachedTokens: number, prefilledTokens?: number) => ({ promptTokens, completionTokens: 10, cachedTokens, cacheFrom: 'usage' as const, ...(prefilledTokens !== undefined ? { prefilledTokens } : {}) });

test('a server that reports no cache figures (a hosted API) gets no re-prefill flags: unknown is not a miss', (t) => {
  const ledger = new CacheLedger();
  const unreported = (promptTokens: number) => ({ promptTokens, completionTokens: 10, cachedTokens: 0 });
  t.like(ledger.record(ledger.begin(), unreported(5_000)), { request: 1, cacheUnreported: true, reprefill: undefined });
  t.like(ledger.record(ledger.begin(), unreported(5_400)), { request: 2, cacheUnreported: true, reprefill: undefined });
  t.like(ledger.record(ledger.begin(), usage(5_800, 5_400)), { request: 3, reprefill: undefined });
  const totals = ledger.totals();
  t.deepEqual(totals.reprefills, []);
  t.is(totals.unreported, 2);
});

test('requests that prefill what was appended are not flagged; one that re-prefills more is, with its cause', (t) => {
  const ledger = new CacheLedger();
  t.like(ledger.record(ledger.begin(), usage(10_000, 0, 10_000)), { request: 1, prefilledTokens: 10_000, appendedTokens: undefined, reprefill: undefined });
  t.like(ledger.record(ledger.begin(), usage(10_400, 10_000, 400)), { request: 2, appendedTokens: 400, reprefill: undefined });
  // The engine prefilled 10,600 of 10,600: only 200 were new.
  t.like(ledger.record(ledger.begin(), usage(10_600, 0, 10_600)), { request: 3, appendedTokens: 200, reprefill: { tokens: 10_400, cause: 'engine' } });
  t.like(ledger.record(ledger.begin({ compaction: { keptTokens: 3_000, heldTokens: 5_000 } }), usage(7_000, 0)), { request: 4, reprefill: { cause: 'compaction', tokens: 5_000 }, compaction: { keptTokens: 3_000, reprefilledTokens: 5_000 } });
  t.like(ledger.record(ledger.begin({ sharedSlotWave: true }), usage(7_300, 0)), { request: 5, reprefill: { cause: 'subagent-wave' } });
  const n = ledger.begin();
  ledger.explain(n, 'the template puts the tools block before the newest user message, so every new message re-prefills from there');
  t.like(ledger.record(n, usage(7_500, 100)), { reprefill: { cause: 'template' } });
  // A few tokens more than appended (a re-rendered generation prompt) are no flag.
  t.is(ledger.record(ledger.begin(), usage(7_600, 7_500 - REPREFILL_SLACK_TOKENS))!.reprefill, undefined);
  const totals = ledger.totals();
  t.is(totals.requests, 7);
  t.deepEqual(totals.reprefills.map((entry) => entry.request), [3, 4, 5, 6]);
  t.is(totals.prefilledTokens, 10_000 + 400 + 10_600 + 7_000 + 7_300 + 7_400 + 132);
});

test('a cause found after the figures came in is attached, and a restart starts the prefix over unflagged', (t) => {
  const ledger = new CacheLedger();
  ledger.record(ledger.begin(), usage(1000, 0));
  const n = ledger.begin();
  ledger.record(n, usage(1200, 0));
  t.is(ledger.last()!.reprefill!.cause, 'engine');
  ledger.explain(n, 'the template renders the last tool result differently once another message follows it');
  t.is(ledger.totals().reprefills[0]!.reprefill!.cause, 'template');
  ledger.restart();
  t.is(ledger.record(ledger.begin(), usage(900, 0))!.reprefill, undefined);
});

test('a compaction event costs what the engine prefilled beyond what was new to it: nothing when it found the kept history, the kept history when it did not', (t) => {
  const event = { keptTokens: 3_000, heldTokens: 6_000 };
  // Found again (llama.cpp --cache-reuse moved it): only the 1,000 new tokens were prefilled.
  const found = new CacheLedger();
  found.record(found.begin(), usage(12_000, 0, 12_000));
  t.like(found.record(found.begin({ compaction: event }), usage(7_000, 6_000, 1_000)), { compaction: { keptTokens: 3_000, reprefilledTokens: 0 }, reprefill: undefined });
  t.deepEqual(found.totals().compaction, { events: 1, keptTokens: 3_000, measured: 1, measuredKeptTokens: 3_000, reprefilledTokens: 0 });
  t.is(cacheReuseAdvice(found.totals().compaction), undefined);
  // Not found: the cache held the system prompt, tools and task (3,000), the kept 3,000 went again.
  const lost = new CacheLedger();
  lost.record(lost.begin(), usage(12_000, 0, 12_000));
  const entry = lost.record(lost.begin({ compaction: event }), usage(7_000, 3_000, 4_000))!;
  t.like(entry, { compaction: { keptTokens: 3_000, reprefilledTokens: 3_000 }, reprefill: { cause: 'compaction', tokens: 3_000 } });
  t.regex(entry.reprefill!.detail, /the engine prefilled again 3000 of the 3000 tokens kept verbatim/);
  t.regex(cacheReuseAdvice(lost.totals().compaction)!, /^at 1 compaction event the engine prefilled again 3000 tokens of the 3000 it held and reika kept verbatim; llama-server --cache-reuse 64/);
  // A server that reports no cache: the event is counted, its cost unknown, no advice.
  const hosted = new CacheLedger();
  hosted.record(hosted.begin({ compaction: event }), { promptTokens: 7_000, completionTokens: 10, cachedTokens: 0 });
  t.deepEqual(hosted.totals().compaction, { events: 1, keptTokens: 3_000, measured: 0, measuredKeptTokens: 0, reprefilledTokens: 0 });
  t.is(cacheReuseAdvice(hosted.totals().compaction), undefined);
});
