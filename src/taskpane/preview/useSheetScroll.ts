import { useLayoutEffect, useRef } from 'react';

/**
 * Each sheet keeps its own scroll, as each of Excel's sheets does: one shown for the first time starts at A1.
 * `keepScroll` goes on the scroll box's onScroll.
 */
export function useSheetScroll(sheet: string) {
  const scrollRef = useRef<HTMLDivElement>(null);
  const scrolls = useRef(new Map<string, { left: number; top: number }>());
  const shownSheet = useRef(sheet);
  // Kept as it happens: by the time another sheet is drawn, the box may have clamped the old scroll.
  const keepScroll = () => {
    const box = scrollRef.current;
    if (box) scrolls.current.set(shownSheet.current, { left: box.scrollLeft, top: box.scrollTop });
  };
  useLayoutEffect(() => {
    const box = scrollRef.current;
    if (!box || shownSheet.current === sheet) return;
    shownSheet.current = sheet;
    const back = scrolls.current.get(sheet) ?? { left: 0, top: 0 };
    box.scrollLeft = back.left;
    box.scrollTop = back.top;
  }, [sheet]);

  return { scrollRef, keepScroll };
}
