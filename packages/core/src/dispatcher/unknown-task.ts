import { clip } from '../errors/clip';
import { InvalidParamsError } from '../errors/mcp-error';

/** What an unknown task id answers (-32602), and so does a task its caller may not see. */
export function unknownTask(taskId: string): InvalidParamsError {
  return new InvalidParamsError(`Unknown task: ${clip(taskId)}`);
}
