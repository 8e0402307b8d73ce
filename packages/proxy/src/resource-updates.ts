/**
 * The remote's `notifications/resources/updated`, passed on at most once per resource per turn
 * of the event loop, and only for the resources the proxy follows: a remote that floods updates,
 * or names resources it never listed, costs the gateway's subscribers a few notifications, and
 * the proxy holds at most one entry per followed resource.
 */
export class ResourceUpdates {
  private readonly waiting = new Set<string>();
  private scheduled = false;

  constructor(private readonly send: (uri: string) => void) {}

  /** `followed`: the URIs the proxy subscribed to on the connection the update came on. */
  heard(uri: string, followed: ReadonlySet<string> | undefined): void {
    if (followed?.has(uri) !== true) return;
    this.waiting.add(uri);
    if (this.scheduled) return;
    this.scheduled = true;
    setImmediate(() => {
      this.scheduled = false;
      const uris = [...this.waiting];
      this.waiting.clear();
      for (const each of uris) this.send(each);
    });
  }
}
