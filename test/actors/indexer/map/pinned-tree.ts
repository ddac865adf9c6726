import type { Tree } from '../../../helpers/temp.js';
import { sampleRepo } from '../repo-map-sample.js';

/**
 * The tree whose repo map `pinned-map.test.ts` pins byte for byte: the repo-map sample (TypeScript,
 * Python and Go modules that call and import each other, tests, a generated client) and, beside
 * it, a few files in each other mapped language with the cases the ranking treats specially:
 * barrels and `export *`, `index.ts` and `__init__.py` folders, `@scope/pkg` and Python package
 * imports, a `src` workspace layout, Ruby's `valid?`, an anonymous `export default`, names
 * defined in several files, a C header and its source, vendored and generated code. Deterministic.
 */
export function pinnedTree(): Tree {
  return {
    ...sampleRepo({ packages: 8, modulesPerPackage: 6, testsPerPackage: 2, functionsPerModule: 4 }),
    'packages/ui/src/index.ts': "export * from './button.js';\nexport { Dialog as Modal } from './dialog.js';\n",
    'packages/ui/src/button.ts': "import { theme } from '@acme/theme';\nexport function renderButton(label: string) { return theme.wrap(label); }\nexport default function () {}\n",
    'packages/ui/src/dialog.tsx': "import { renderButton } from './button';\nexport class Dialog { open() { return renderButton('ok'); } }\n",
    'packages/theme/src/index.ts': 'export const theme = { wrap: (text: string) => text };\nexport type ThemeName = string;\n',
    'packages/app/src/main.ts': "import { renderButton, Modal } from '@acme/ui';\nimport { theme } from '@acme/theme';\nconst app = renderButton(theme.wrap('x'));\nexport const mainDialog = new Modal();\n",
    'packages/app/src/main.test.ts': "import { mainDialog } from './main';\ntest('opens', () => mainDialog.open());\n",
    'tools/shop/__init__.py': 'from .cart import Cart, checkout_total\n__all__ = ["Cart", "checkout_total", "VERSION"]\nVERSION = "1.0"\n',
    'tools/shop/cart.py': 'from shop.pricing import price_of\n\nclass Cart:\n    def add(self, item):\n        return price_of(item)\n\ndef checkout_total(cart):\n    return sum(price_of(i) for i in cart)\n\ndef _private_helper():\n    pass\n',
    'tools/shop/pricing.py': 'import os\nfrom typing import Dict\n\nTAX_RATE = 0.2\n\ndef price_of(item):\n    return item.price * (1 + TAX_RATE)\n',
    'tools/tests/test_cart.py': 'from shop import Cart, checkout_total\n\ndef test_total():\n    assert checkout_total(Cart()) == 0\n',
    'services/ledger/ledger.go': 'package ledger\n\n// Ledger keeps entries.\ntype Ledger struct{ Entries []Entry }\n\ntype Entry struct{ Amount int }\n\nfunc (l *Ledger) Append(e Entry) { l.Entries = append(l.Entries, e) }\n\nfunc NewLedger() *Ledger { return &Ledger{} }\n\nconst (\n\tMaxEntries = 100\n\tminEntries = 1\n)\n',
    'services/ledger/ledger_test.go': 'package ledger\n\nfunc TestAppend(t *testing.T) { NewLedger().Append(Entry{Amount: MaxEntries}) }\n',
    'engine/src/lib.rs': 'pub mod scheduler;\n\npub struct Engine { pub ticks: u64 }\n\npub fn start_engine() -> Engine { Engine { ticks: 0 } }\n\nfn internal_tick() {}\n',
    'engine/src/scheduler/mod.rs': 'use crate::Engine;\n\npub trait Schedule { fn next(&self, engine: &Engine) -> u64; }\n\npub enum Priority { High, Low }\n',
    'native/buffer.h': '#ifndef BUFFER_H\n#define BUFFER_H\n#define BUFFER_CAPACITY 4096\ntypedef struct ByteBuffer { char *data; } ByteBuffer;\nByteBuffer *buffer_create(int size);\n#endif\n',
    'native/buffer.c': '#include "buffer.h"\n/* buffer_create makes one */\nByteBuffer *buffer_create(int size) { return 0; }\nstatic int buffer_grow(ByteBuffer *b) { return 0; }\n',
    'lib/billing/invoice.rb': 'module Billing\n  class Invoice\n    def valid?\n      true\n    end\n\n    def total=(value)\n      @total = value\n    end\n  end\nend\n',
    'lib/billing/report.rb': "require_relative 'invoice'\n\nclass Report\n  def render\n    Billing::Invoice.new.valid? && Billing::Invoice.new.total = 1\n  end\nend\n",
    'web/Controller.php': '<?php\nnamespace App;\n\nclass Controller {\n  public function handleRequest() { return new Invoice(); }\n}\n\nfunction helper_route() {}\n',
    'mobile/Account.swift': 'public struct Account {\n  public var balance: Int\n}\n\nfunc accountSummary(_ account: Account) -> String { "" }\n',
    'mobile/AccountView.kt': 'class AccountView {\n  fun showAccount(account: Account) {}\n}\n\nfun renderAccountView() = AccountView()\n',
    'server/Billing.java': 'package server;\n\npublic class Billing {\n  public static int computeInvoiceTotal() { return 0; }\n}\n',
    'server/Ledger.cs': 'namespace Server {\n  public class LedgerService {\n    public void Append() {}\n  }\n}\n',
    'scripts/deploy.sh': '#!/bin/sh\ndeploy_release() {\n  echo deploy\n}\nrollback-release() { :; }\n',
    'scripts/config.lua': 'local M = {}\nfunction M.load_config() end\nfunction setup_logging() end\nreturn M\n',
    'vendor/lodash/chunk.js': 'module.exports = function chunk(list, size) { return [list, size]; };\n',
    'packages/ui/src/theme.generated.ts': '// Code generated by themegen. DO NOT EDIT.\nexport const generatedTheme = {};\n',
  };
}
