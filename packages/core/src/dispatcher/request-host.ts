import type { EraHost } from '../eras/era';
import type { AppModel } from './app-model';

/** Where a request runs, as the dispatcher sees it: the host its codec sees, with the whole app. */
export interface RequestHost extends EraHost {
  readonly app: AppModel;
}
