from distance import trip_total


def test_trip_of_km_and_metres():
    assert trip_total(["2 km", "500 m"]) == "2.5 km"


def test_trip_with_decimal_km():
    assert trip_total(["1.2 km", "300 m"]) == "1.5 km"
