import test from 'ava';
import { definitionsOf } from './definitions-of.js';

test('a Swift file lists types, functions and globals; private and fileprivate ones are not exported', (t) => {
  const source = `import Foundation

public let defaultTimeout: TimeInterval = 30
private var requestCount = 0

public protocol Transport {
    func send(_ request: URLRequest) async throws -> Data
}

public final class HTTPClient: Transport {
    private let session: URLSession

    public init(session: URLSession = .shared) {
        self.session = session
    }

    public func send(_ request: URLRequest) async throws -> Data {
        let (data, _) = try await session.data(for: request)
        return data
    }

    class func shared() -> HTTPClient { HTTPClient() }

    private func log(_ message: String) {}
}

struct RetryPolicy {
    var attempts: Int
    static func standard() -> RetryPolicy { RetryPolicy(attempts: 3) }
}

public enum HTTPError: Error {
    case status(Int)
}

fileprivate func backoff(_ attempt: Int) -> Double { 0.5 }

typealias Headers = [String: String]

actor TokenStore {}

extension HTTPClient {
    func get(_ url: URL) async throws -> Data { try await send(URLRequest(url: url)) }
}
`;
  t.deepEqual(definitionsOf('Sources/Net/HTTPClient.swift', source), [
    '+ defaultTimeout constant',
    '- requestCount variable',
    '+ Transport protocol',
    '+ send function',
    '+ HTTPClient class',
    '+ shared function',
    '- log function',
    '+ RetryPolicy struct',
    '+ standard function',
    '+ HTTPError enum',
    '- backoff function',
    '+ Headers type',
    '+ TokenStore class',
    '+ get function',
  ]);
});
