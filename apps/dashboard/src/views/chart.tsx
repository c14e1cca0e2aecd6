import { useEffect, useRef } from "preact/hooks";
import uPlot from "uplot";
import "uplot/dist/uPlot.min.css";

export interface Series {
  label: string;
  values: number[];
  color: string;
}

/** A bar chart (one group per day) drawn by uPlot, sized to its container (375 px and up). */
export function DayChart({
  title,
  days,
  series,
}: {
  title: string;
  days: number[];
  series: Series[];
}) {
  const box = useRef<HTMLDivElement>(null);
  useEffect(() => {
    const element = box.current;
    if (element === null) return;
    const width = Math.max(280, element.clientWidth);
    const bars = uPlot.paths.bars?.({ size: [0.8 / Math.max(1, series.length), 48] });
    const plot = new uPlot(
      {
        width,
        height: 220,
        scales: { x: { time: true } },
        axes: [{ stroke: "#1f2933" }, { stroke: "#1f2933", size: 60 }],
        series: [
          {},
          ...series.map((s) => ({
            label: s.label,
            stroke: s.color,
            fill: `${s.color}cc`,
            width: 1,
            ...(bars === undefined ? {} : { paths: bars }),
            points: { show: false },
          })),
        ],
      },
      [days, ...series.map((s) => s.values)],
      element,
    );
    return () => plot.destroy();
  }, [days, series]);
  return (
    <figure class="chart">
      <figcaption>{title}</figcaption>
      <div ref={box} role="img" aria-label={title} />
    </figure>
  );
}
