/** Hands each complete line of a child process's output stream to `onLine` (a last line without a newline is kept). */
export function collectLines(stream: NodeJS.ReadableStream | null, onLine: (line: string) => void): void {
  let partial = '';
  stream?.setEncoding('utf8');
  stream?.on('data', (chunk: string) => {
    const lines = (partial + chunk).split('\n');
    partial = lines.pop() ?? '';
    for (const line of lines) onLine(line);
  });
}
