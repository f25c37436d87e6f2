// Code the first screen does not draw, each in a chunk of its own: fetched when first
// asked for, or (`soon`) once the first screen is on display. Once in, a module is
// handed over as it is, not as a promise, so that LazyScreen draws it in the same frame
// as what asked for it: a dialog opened with a key is there for the keys typed next.
import { firstScreenOnDisplay } from './start';

/** A module: itself once it is in, else the promise of it. */
export type Load<T> = () => T | Promise<T>;

/** Loads `importer`'s module once (again after a failure, should it be asked again). */
export function lazy<T>(importer: () => Promise<T>): Load<T> {
  let module: T | undefined;
  let loading: Promise<T> | undefined;
  return () =>
    module ??
    (loading ??= importer().then(
      (loaded) => (module = loaded),
      (error: unknown) => {
        loading = undefined;
        throw error;
      },
    ));
}

/** `lazy`, and fetched once the first screen is on display: in hand before it is asked for. */
export function soon<T>(importer: () => Promise<T>): Load<T> {
  const load = lazy(importer);
  void firstScreenOnDisplay.then(() => Promise.resolve(load()).catch(() => {}));
  return load;
}

/** Resolves once `load`'s module is in, or could not be (LazyScreen then says so). */
export async function loaded(load: Load<unknown>): Promise<void> {
  await Promise.resolve(load()).catch(() => {});
}
