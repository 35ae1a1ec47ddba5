import type { FunctionalComponent } from 'vue';
import type { ColumnSettings } from '@tianji/web-core';
import { columnNodes, columnsOf } from '../../lib/use-column-settings';

/**
 * Renders the `<el-table-column>`s of its slot that the list's 列设置 shows: `<ShownColumns :settings><slot /></ShownColumns>`
 * inside an el-table. Unlabelled columns always show.
 */
const ShownColumns: FunctionalComponent<{ settings: ColumnSettings }> = (props, { slots }) => {
  const nodes = columnNodes(slots.default?.());
  const info = new Map(columnsOf(nodes).map((c) => [c.label, c]));
  return nodes.filter((n) => {
    const c = n.props?.label ? info.get(String(n.props.label)) : undefined;
    return !c || props.settings.shown(c);
  });
};
ShownColumns.props = ['settings'];
export default ShownColumns;
