"""The processes that decide computer seats' moves."""


async def test_the_deciding_processes_yield_the_cores_to_the_bot() -> None:
    """A decision runs in a process of its own, niced below the bot's priority."""
    import asyncio
    import os

    from bot.service import computer

    (pid, where), (niceness, _) = await asyncio.gather(
        computer.POOL.run(computer._ready), computer.POOL.run(computer._niceness)
    )
    assert where == "process" and pid != os.getpid() and pid in computer.POOL.pids()
    assert niceness == min(19, os.nice(0) + computer.NICENESS)
