import { Skeleton } from 'antd';
import type { EChartsCoreOption } from 'echarts/core';
import { useEffect, useRef, useState } from 'react';

type EChartsInstance = ReturnType<typeof import('echarts/core').init>;

export interface EChartProps {
  option: EChartsCoreOption;
  height?: number;
  /** Names the chart for tests and assistive technology, e.g. "Delivered per day". */
  ariaLabel: string;
}

/**
 * One ECharts chart: loads the library on first use (its own lazy chunk), draws `option`, redraws
 * when it changes, follows the container's width, and disposes on unmount. A skeleton stands in
 * while the library loads.
 */
export function EChart({ option, height = 320, ariaLabel }: EChartProps) {
  const element = useRef<HTMLDivElement>(null);
  const chart = useRef<EChartsInstance | null>(null);
  const [ready, setReady] = useState(false);

  useEffect(() => {
    let disposed = false;
    let observer: ResizeObserver | undefined;
    void import('./echarts-setup.ts').then(({ echarts }) => {
      if (disposed || !element.current) return;
      chart.current = echarts.init(element.current);
      observer = new ResizeObserver(() => chart.current?.resize());
      observer.observe(element.current);
      setReady(true);
    });
    return () => {
      disposed = true;
      observer?.disconnect();
      chart.current?.dispose();
      chart.current = null;
    };
  }, []);

  useEffect(() => {
    if (ready) chart.current?.setOption(option, { notMerge: true });
  }, [ready, option]);

  return (
    <div style={{ position: 'relative', height }}>
      {!ready && <Skeleton active paragraph={{ rows: 6 }} />}
      <div
        ref={element}
        role="img"
        aria-label={ariaLabel}
        data-chart-ready={ready ? 'true' : 'false'}
        style={{ position: 'absolute', inset: 0 }}
      />
    </div>
  );
}
