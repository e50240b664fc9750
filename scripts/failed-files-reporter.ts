/**
 * A test reporter that writes, as JSON, which test files had a failing test and the names of those
 * tests (`scripts/run-tests.ts` reads it to run those files once more).
 */
type TestEvent = { type: string; data: { file?: string; name?: string; nesting?: number } };

export default async function* failedFiles(source: AsyncIterable<TestEvent>): AsyncGenerator<string> {
  const failed = new Map<string, string[]>();
  for await (const event of source) {
    if (event.type !== 'test:fail' || !event.data.file) continue;
    const names = failed.get(event.data.file) ?? [];
    if (event.data.name) names.push(event.data.name);
    failed.set(event.data.file, names);
  }
  yield JSON.stringify(Object.fromEntries(failed));
}
