/**
 * The protocol's stdout: a web stream that writes to the real stdout, while `process.stdout.write`
 * itself is pointed at stderr. JSON-RPC is then the only thing on stdout, whatever else in the
 * process prints (a worker thread's output is written through the main thread's `process.stdout`).
 */
export function protocolOutput(stdout: NodeJS.WriteStream, stderr: NodeJS.WriteStream): WritableStream<Uint8Array> {
  const write = stdout.write.bind(stdout) as (chunk: Uint8Array, callback: (error?: Error | null) => void) => boolean;
  stdout.write = stderr.write.bind(stderr) as typeof stdout.write;
  return new WritableStream<Uint8Array>({
    write: (chunk) =>
      new Promise<void>((resolve, reject) => {
        write(chunk, (error) => (error ? reject(error) : resolve()));
      }),
  });
}
