import test from 'ava';
import { definitionsOf } from './definitions-of.js';

test('a Ruby file lists classes, modules, methods and constants; private sections are private', (t) => {
  const source = `# frozen_string_literal: true

module Billing
  TAX_RATE = 0.2

  class Invoice < ApplicationRecord
    STATUSES = %w[draft sent paid].freeze

    def self.overdue
      where("due_at < ?", Time.current)
    end

    def total
      subtotal + tax
    end

    def paid?
      status == "paid"
    end

    def status=(value)
      super(value.to_s)
    end

    protected

    def subtotal
      lines.sum(&:amount)
    end

    private

    def tax
      subtotal * TAX_RATE
    end

    public

    def to_s
      "Invoice #{id}"
    end

    private def audit!
      true
    end

    def helper; end
    private :helper
  end

  class Payment
    def capture
      true
    end
  end
end
`;
  t.deepEqual(definitionsOf('app/models/billing/invoice.rb', source), [
    '+ Billing module',
    '+ TAX_RATE constant',
    '+ Invoice class',
    '+ STATUSES constant',
    '+ overdue method',
    '+ total method',
    '+ paid? method',
    '+ status= method',
    '- subtotal method',
    '- tax method',
    '+ to_s method',
    '- audit! method',
    '- helper method',
    '+ Payment class',
    '+ capture method',
  ]);
});
