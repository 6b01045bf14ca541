from dataclasses import dataclass

_SM12X_ARCHS = (120, 121)


@dataclass(frozen=True)
class Fp4Config:
    @classmethod
    def supported(cls, arch: int) -> bool:
        # "SM100+": open-ended, so it admits sm_120 too.
        return arch >= 100


@dataclass(frozen=True)
class BoundedFp4Config:
    @classmethod
    def supported(cls, arch: int) -> bool:
        return 100 <= arch < 120


@dataclass(frozen=True)
class Sm12xFp4Config:
    @staticmethod
    def supported(arch: int) -> bool:
        return arch in _SM12X_ARCHS


@dataclass(frozen=True)
class DslConfig:
    @classmethod
    def supported(cls, arch: int) -> bool:
        return arch in (100, 103)


@dataclass(frozen=True)
class LibFp4Config:
    @classmethod
    def supported(cls, arch: int) -> bool:
        return arch in (100, 103)


@dataclass(frozen=True)
class Fp8Config:
    @classmethod
    def supported(cls, arch: int) -> bool:
        return arch >= 90


@dataclass(frozen=True)
class W4A16Config:
    @classmethod
    def supported(cls, arch: int) -> bool:
        return arch >= 80
