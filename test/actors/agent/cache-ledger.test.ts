import test from 'ava';
import { CacheLedger, REPREFILL_SLACK_TOKENS } from '../../../actors/agent/cache-ledger.js';

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
  t.like(ledger.record(ledger.begin({ compaction: true }), usage(7_000, 0)), { request: 4, reprefill: { cause: 'compaction' } });
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
