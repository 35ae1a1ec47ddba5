import { computed, Comment, Fragment, type VNode } from 'vue';
import { columnSettings, columnStorageKey, describeColumns, type ColumnInfo } from '@tianji/web-core';
import { i18n } from '../i18n';
import { currentUser } from '../session';

/**
 * The 列设置 of one list (`name`, e.g. `users`): which of its columns the signed-in operator hid, kept in
 * localStorage per user and list. Used by TableToolbar (the popover) and ShownColumns (the table).
 */
export function useColumnSettings(name: () => string) {
  return computed(() => columnSettings(columnStorageKey(name(), currentUser.value?.id), globalThis.localStorage));
}

/** The `<el-table-column>`s among a slot's nodes, `v-for` and `<template v-if>` unwrapped. */
export function columnNodes(nodes: VNode[] | undefined): VNode[] {
  return (nodes ?? []).flatMap((n) =>
    n.type === Fragment ? columnNodes(n.children as VNode[]) : n.type === Comment ? [] : [n],
  );
}

/** What the 列设置 popover lists for these column nodes; unlabelled columns (a selection box) are left out. */
export function columnsOf(nodes: VNode[]): ColumnInfo[] {
  const labelled = nodes.filter((n) => n.props?.label);
  return describeColumns(
    labelled.map((n) => ({
      label: String(n.props!.label),
      prop: n.props!.prop,
      columnKey: n.props!['column-key'] ?? n.props!.columnKey,
      fixed: n.props!.fixed,
    })),
    i18n.global.t('common.actions'),
  );
}
