import test from 'ava';
import { definitionsOf } from './definitions-of.js';

test('a PHP file lists classes, functions, methods and constants; private and protected ones are private', (t) => {
  const source = `<?php

declare(strict_types=1);

namespace App\\Http;

use Psr\\Log\\LoggerInterface;

define('APP_VERSION', '3.2.0');

const DEFAULT_LOCALE = 'en';

interface Middleware
{
    public function handle(Request $request): Response;
}

final class RateLimiter implements Middleware
{
    public const MAX_REQUESTS = 60;
    private const WINDOW = 60;

    public function __construct(private LoggerInterface $log) {}

    public function handle(Request $request): Response
    {
        $key = $this->keyFor($request);
        return new Response();
    }

    protected function keyFor(Request $request): string
    {
        return $request->ip();
    }

    private static function &bucket(string $key): array
    {
        static $buckets = [];
        return $buckets[$key];
    }

    function legacy() {}
}

trait Loggable {}

enum Verdict: string { case Allow = 'allow'; }

function rate_limit_key(string $ip): string
{
    $fn = function ($x) { return $x; };
    return 'rl:' . $ip;
}
`;
  t.deepEqual(definitionsOf('src/Http/RateLimiter.php', source), [
    '+ APP_VERSION constant',
    '+ DEFAULT_LOCALE constant',
    '+ Middleware interface',
    '+ handle function',
    '+ RateLimiter class',
    '+ MAX_REQUESTS constant',
    '- WINDOW constant',
    '+ __construct function',
    '- keyFor function',
    '- bucket function',
    '+ legacy function',
    '+ Loggable trait',
    '+ Verdict enum',
    '+ rate_limit_key function',
  ]);
});
