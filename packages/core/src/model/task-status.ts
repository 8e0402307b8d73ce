/** Where a task is in its life; the last three are terminal and never change again. */
export type TaskStatus = 'working' | 'input_required' | 'completed' | 'failed' | 'cancelled';
