"""Alter EGO ―オルタリゴ―: a card-plotting 1-on-1 fighting game (rules: docs/rules/alterego.md)."""

from .system import SYSTEM, AlterEgo

__all__ = ["SYSTEM", "AlterEgo"]
