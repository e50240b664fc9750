import styles from './StatusScreen.module.css';

/** Shown while the first screen's chunk and loaders run; CSS only, so the entry stays small. */
export function PageLoading() {
  return (
    <div className={styles.screen} aria-busy="true">
      <span className={styles.spinner} />
    </div>
  );
}
