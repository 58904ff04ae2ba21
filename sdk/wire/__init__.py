"""The wire: what both ends of the bot protocol share, the referee (client) and the bot
runtime (server), apart from either end.

:mod:`~sdk.wire.codec` (game values to protobuf and back) and
:mod:`~sdk.wire.view_decoder` (a Decide request's view, rebuilt incrementally) >
:mod:`~sdk.wire.error_status` (a bot's error as a gRPC status, and back) and
:mod:`~sdk.wire.claims` (what a bot's Hello claims) > :mod:`~sdk.wire.service` (the
service's name and message limits). The messages themselves are generated from proto/
into :mod:`sdk.protocol`.
"""
