/** What a kind of sending task offers its runner (SmsTasksService, MailListTasksService). */
export interface TaskRunner {
  /** Claims one due task for `owner` and writes it, unless `stopping()`; answers whether there was one. */
  runDue(owner: string, stopping: () => boolean): Promise<boolean>;
  /** Marks written tasks with nothing left with Herald finished. */
  finishSent(): Promise<number>;
  /** Registers the wake-up this process calls when a task that may start now is made here. */
  onStartable(wake: () => void): void;
}
