const STEPS = [0, 50, 100];

/**
 * Runs a call of `test_tool_with_progress` (`call` pushes each progress value it hears) up to
 * three times, until one hears every step; returns the last call's steps and result. The official
 * clients drop a request's last progress when it comes in the same read as the answer. The
 * server's answer pacer waits 50 ms after a progress so that it does not, but a client not
 * scheduled for that long (a loaded CI machine) still reads both at once. A pacer that stopped
 * working would lose it every time, so one call of three must hear all; each hears a prefix.
 */
export async function progressHeard<R>(call: (heard: number[]) => Promise<R>): Promise<{ heard: number[]; result: R }> {
  let last: { heard: number[]; result: R } | undefined;
  for (let attempt = 0; attempt < 3 && (last === undefined || last.heard.length < STEPS.length); attempt++) {
    const heard: number[] = [];
    const result = await call(heard);
    expect(heard).toEqual(STEPS.slice(0, heard.length));
    last = { heard, result };
  }
  return last!;
}
