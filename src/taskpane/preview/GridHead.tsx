import { mergeClasses } from '@fluentui/react-components';
import type { CSSProperties, Ref } from 'react';
import { columnLetters } from '../../workbook/address';
import type { GridView } from './gridModel';
import { useGridStyles } from './gridStyles';

/** The column headers: a table's column names over its columns (as a frozen header row reads), letters elsewhere. */
export function GridHead({ view, columns, widthOf, rowRef }: { view: GridView; columns: number; widthOf(c: number): CSSProperties | undefined; rowRef: Ref<HTMLTableRowElement> }) {
  const s = useGridStyles();
  return (
    <thead>
      <tr aria-rowindex={1} ref={rowRef}>
        <th className={mergeClasses(s.head, s.corner)} aria-label="Row and column headers" />
        {Array.from({ length: columns }, (_, c) => {
          const name = view.columnNames.get(c);
          return (
            <th
              key={c}
              className={mergeClasses(s.head, s.colHead, name !== undefined && s.columnName, view.hiddenColumns.has(c) && s.hiddenColumn)}
              scope="col"
              style={widthOf(c)}
              data-hidden-column={view.hiddenColumns.has(c) || undefined}
              title={view.hiddenColumns.has(c) ? `Column ${columnLetters(c)} (hidden)` : name !== undefined ? `Column ${columnLetters(c)}` : undefined}
            >
              {name ?? columnLetters(c)}
            </th>
          );
        })}
      </tr>
    </thead>
  );
}
