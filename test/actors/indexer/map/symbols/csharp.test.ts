import test from 'ava';
import { definitionsOf } from './definitions-of.js';

test('a C# file lists types, methods and properties; public ones are exported', (t) => {
  const source = `using System;
using System.Collections.Generic;

namespace Shop.Billing
{
    public delegate void InvoiceHandler(Invoice invoice);

    [Serializable]
    public sealed partial class InvoiceService : IInvoiceService
    {
        private readonly List<Invoice> _invoices = new();

        public InvoiceService() { }

        public int Count => _invoices.Count;

        public string Currency { get; init; } = "EUR";

        public event InvoiceHandler? Issued;

        public async Task<Invoice?> FindAsync(Guid id)
        {
            return await Task.FromResult(_invoices.Find(i => i.Id == id));
        }

        public static T Parse<T>(string text) where T : new() => new T();

        internal void Reset() { _invoices.Clear(); }

        private static decimal Round(decimal value) => Math.Round(value, 2);
    }

    public interface IInvoiceService
    {
        Task<Invoice?> FindAsync(Guid id);
    }

    internal record struct Money(decimal Amount, string Currency);

    public enum InvoiceState { Draft, Issued }

    struct Totals { }
}
`;
  t.deepEqual(definitionsOf('src/Billing/InvoiceService.cs', source), [
    '+ InvoiceHandler type',
    '+ InvoiceService class',
    '+ Count variable',
    '+ Currency variable',
    '+ FindAsync method',
    '+ Parse method',
    '- Reset method',
    '- Round method',
    '+ IInvoiceService interface',
    '- Money struct',
    '+ InvoiceState enum',
    '- Totals struct',
  ]);
});
