import test from 'ava';
import { UsageLedger } from '../../../actors/agent/usage-ledger.js';

test('the ledger sums usage and counts requests over the session; a new conversation forgets only the last usage', (t) => {
  const ledger = new UsageLedger();
  ledger.countRequest();
  ledger.record({ promptTokens: 100, completionTokens: 10, cachedTokens: 60 });
  ledger.countRequest();
  ledger.record({ promptTokens: 120, completionTokens: 5, cachedTokens: 100 });
  t.deepEqual(ledger.totals, { promptTokens: 220, completionTokens: 15, cachedTokens: 160, reported: 2 });
  t.is(ledger.requests, 2);
  t.is(ledger.cacheHitRate, 160 / 220);
  t.deepEqual(ledger.last, { promptTokens: 120, completionTokens: 5, cachedTokens: 100 });
  ledger.newConversation();
  t.is(ledger.requests, 2, '/tokens, /doctor and the exit line count every request of the session');
  t.is(ledger.last, undefined);
  t.is(ledger.totals.promptTokens, 220, 'a new conversation keeps the session sums');
});

test('a ledger restored from its snapshot goes on from the same figures', (t) => {
  const ledger = new UsageLedger();
  ledger.countRequest();
  ledger.record({ promptTokens: 10, completionTokens: 1, cachedTokens: 0 });
  const restored = UsageLedger.restore(JSON.parse(JSON.stringify(ledger.snapshot())));
  restored.record({ promptTokens: 5, completionTokens: 1, cachedTokens: 5 });
  t.deepEqual(restored.totals, { promptTokens: 15, completionTokens: 2, cachedTokens: 5, reported: 2 });
  t.deepEqual(ledger.totals, { promptTokens: 10, completionTokens: 1, cachedTokens: 0, reported: 1 }, 'the original is not shared');
  t.is(new UsageLedger().cacheHitRate, 0);
});
