"""Moderation's stored values as the wire's models (as `server.rooms.views` does for rooms and games)."""

from __future__ import annotations

from engine.record import format_timestamp
from server.domain import AuditEntry, Report
from wire.moderation_events import AuditEntryModel, ReportModel


def report_model(report: Report) -> ReportModel:
    return ReportModel(
        report_id=report.report_id,
        reporter=report.reporter,
        player=report.target,
        reason=report.reason,
        filed_at=format_timestamp(report.filed_at),
        room_id=report.room_id,
        chat_id=report.chat_id,
        chat_text=report.chat_text,
    )


def audit_entry_model(entry: AuditEntry) -> AuditEntryModel:
    return AuditEntryModel(
        at=format_timestamp(entry.at),
        actor=entry.actor,
        action=entry.action,
        target=entry.target,
        reason=entry.reason,
        detail=entry.detail,
    )
