"""On a decision stream, from its second decision on, answers each request twice: first
the fallback (option 0), then, for the same request, the last option. The second reply
has no outstanding request: a PROTOCOL fault, and it must never be applied to the next
decision. (A Decide call carries one reply, so by call this bot plays fair.)"""

from collections.abc import Iterator

import grpc

from sdk.protocol.bullring.v1 import bot_pb2 as pb
from tests.referee.bad_bots.rawbot import RawBot, Reply, serve


class DoubleReply(RawBot):
    def DecideStream(
        self, request_iterator: Iterator[pb.DecideRequest], context: grpc.ServicerContext
    ) -> Iterator[Reply]:
        for request in request_iterator:
            self.decisions += 1
            index = request.decision_index
            yield pb.DecideReply(option_index=0, decision_index=index)
            if self.decisions >= 2:
                last = len(request.options) - 1
                yield pb.DecideReply(option_index=last, decision_index=index)


if __name__ == "__main__":
    serve(DoubleReply())
