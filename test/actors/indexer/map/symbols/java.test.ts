import test from 'ava';
import { definitionsOf } from './definitions-of.js';

test('a Java file lists its types and modified methods; public ones are exported', (t) => {
  const source = `package com.example.orders;

import java.util.List;
import java.util.Map;

/**
 * public class NotThisOne (inside a comment).
 */
@Service
public class OrderService implements OrderApi {
    private static final int MAX_ITEMS = 50;
    private final Map<String, Order> orders;

    public OrderService(Map<String, Order> orders) {
        this.orders = orders;
    }

    @Override
    public Order find(String id) {
        return orders.get(id);
    }

    public static <T extends Order> List<T> sorted(List<T> input) {
        return input;
    }

    protected void audit(Order order) {
        if (order == null) {
            throw new IllegalArgumentException("order");
        }
    }

    private Map<String, List<Order>> byCustomer() {
        return Map.of();
    }

    public enum Status { OPEN, PAID }

    static final class Cache {
        synchronized void clear() {}
    }
}

interface OrderApi {
    Order find(String id);
}

public record OrderLine(String sku, int quantity) {}

@interface Audited {}
`;
  t.deepEqual(definitionsOf('src/main/java/com/example/orders/OrderService.java', source), [
    '+ OrderService class',
    '+ find method',
    '+ sorted method',
    '- audit method',
    '- byCustomer method',
    '+ Status enum',
    '- Cache class',
    '- clear method',
    '- OrderApi interface',
    '+ OrderLine class',
    '- Audited interface',
  ]);
});
