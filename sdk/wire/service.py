"""The bot service's name and message limits, shared by the referee (the client) and the
bot runtime (the server)."""

from __future__ import annotations

from sdk.protocol.bullring.v1 import bot_pb2 as pb

BOT_SERVICE = pb.DESCRIPTOR.services_by_name["Bot"].full_name  # "bullring.v1.Bot"
# The largest message either end takes or sends (a bot's reply is capped lower by the
# referee: referee.bots.process.MAX_REPLY_BYTES).
MAX_MESSAGE_BYTES = 16 * 1024 * 1024
